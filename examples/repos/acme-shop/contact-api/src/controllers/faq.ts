import type { Request, Response } from 'express';
import { findFaq } from '../data/faq';

export const faqController = {
  getFaq(req: Request, res: Response) {
    const faq = findFaq(req.params.slug);
    if (!faq) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.set('Cache-Control', 'public, max-age=300');
    res.json(faq);
  },
};
