import { createClient, type Entry, type EntrySkeletonType } from 'contentful';

export type BlogPostFields = {
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  publishedAt: string;
};

type BlogPostSkeleton = EntrySkeletonType<BlogPostFields, 'blogPost'>;
export type BlogPost = Entry<BlogPostSkeleton, undefined, string>;

const client = createClient({
  space: process.env.CONTENTFUL_SPACE_ID ?? '',
  accessToken: process.env.CONTENTFUL_ACCESS_TOKEN ?? '',
  environment: process.env.CONTENTFUL_ENVIRONMENT ?? 'master',
});

export async function getBlogPosts(limit = 20): Promise<BlogPost[]> {
  const res = await client.getEntries<BlogPostSkeleton>({
    content_type: 'blogPost',
    order: ['-fields.publishedAt'],
    limit,
  });
  return res.items;
}

export async function getBlogPostBySlug(slug: string): Promise<BlogPost | null> {
  const res = await client.getEntries<BlogPostSkeleton>({
    content_type: 'blogPost',
    'fields.slug': slug,
    limit: 1,
  });
  return res.items[0] ?? null;
}

export async function getBlogPostById(id: string): Promise<BlogPost> {
  return client.getEntry<BlogPostSkeleton>(id);
}
