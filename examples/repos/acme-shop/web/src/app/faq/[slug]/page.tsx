import { notFound } from 'next/navigation';
import { getFaq } from '@/lib/api';

type Props = { params: { slug: string } };

export const revalidate = 3600;

export default async function FaqPage({ params }: Props) {
  const faq = await getFaq(params.slug);
  if (!faq) {
    notFound();
  }
  return (
    <article>
      <h1>{faq.question}</h1>
      <p>{faq.answer}</p>
    </article>
  );
}
