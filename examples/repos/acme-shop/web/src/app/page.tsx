import Link from 'next/link';

const featured = [
  { slug: 'shipping', title: '配送について' },
  { slug: 'returns', title: '返品・交換' },
  { slug: 'warranty', title: '製品保証' },
];

export default function HomePage() {
  return (
    <section>
      <h1>ACME Shop</h1>
      <p>Quality tools since 1949.</p>
      <h2>よくある質問</h2>
      <ul>
        {featured.map((item) => (
          <li key={item.slug}>
            <Link href={`/faq/${item.slug}`}>{item.title}</Link>
          </li>
        ))}
      </ul>
      <Link href="/contact">お問い合わせはこちら</Link>
    </section>
  );
}
