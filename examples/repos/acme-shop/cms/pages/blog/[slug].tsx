import type { GetStaticPaths, GetStaticProps } from 'next';
import Head from 'next/head';
import { getBlogPostBySlug, getBlogPosts, type BlogPostFields } from '../../lib/contentful';

type Props = { post: BlogPostFields };

export const getStaticPaths: GetStaticPaths = async () => {
  const posts = await getBlogPosts(50);
  return {
    paths: posts.map((post) => ({ params: { slug: post.fields.slug } })),
    fallback: 'blocking',
  };
};

export const getStaticProps: GetStaticProps<Props, { slug: string }> = async ({ params }) => {
  const post = params ? await getBlogPostBySlug(params.slug) : null;
  if (!post) {
    return { notFound: true, revalidate: 60 };
  }
  return { props: { post: post.fields }, revalidate: 300 };
};

export default function BlogPostPage({ post }: Props) {
  return (
    <article>
      <Head>
        <title>{`${post.title} | ACME Blog`}</title>
        <meta name="description" content={post.excerpt} />
      </Head>
      <h1>{post.title}</h1>
      <time dateTime={post.publishedAt}>{post.publishedAt.slice(0, 10)}</time>
      <div>{post.body}</div>
    </article>
  );
}
