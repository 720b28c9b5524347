import type { NextApiRequest, NextApiResponse } from 'next';
import { getBlogPostById } from '../../lib/contentful';

// Contentful "Open preview" button: /api/preview?secret=...&id=<entry id>
export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'GET') {
    res.setHeader('Allow', 'GET');
    return res.status(405).end();
  }
  if (req.query.secret !== process.env.CONTENTFUL_PREVIEW_SECRET || typeof req.query.id !== 'string') {
    return res.status(401).json({ message: 'Invalid preview request' });
  }

  const post = await getBlogPostById(req.query.id);
  if (!post) {
    return res.status(404).json({ message: 'Entry not found' });
  }

  res.setPreviewData({ entryId: req.query.id });
  res.redirect(307, `/blog/${post.fields.slug}`);
}
