export type Faq = { slug: string; question: string; answer: string };

const FAQS: Faq[] = [
  {
    slug: 'shipping',
    question: '配送にはどのくらいかかりますか？',
    answer: 'ご注文から2〜4営業日でお届けします。',
  },
  {
    slug: 'returns',
    question: '返品はできますか？',
    answer: '商品到着後30日以内であれば未使用品の返品を承ります。',
  },
  {
    slug: 'warranty',
    question: '製品保証の期間は？',
    answer: '電動工具は2年間、ハンドツールは永久保証です。',
  },
];

export function findFaq(slug: string): Faq | undefined {
  return FAQS.find((faq) => faq.slug === slug);
}
