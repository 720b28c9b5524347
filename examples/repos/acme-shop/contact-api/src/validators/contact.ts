import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';

export const contactBody = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().email(),
  subject: z.string().trim().min(1).max(200),
  message: z.string().trim().min(1).max(5000),
  recaptchaToken: z.string().min(1),
});

export type ContactBody = z.infer<typeof contactBody>;

export function validateContact(req: Request, res: Response, next: NextFunction) {
  const parsed = contactBody.safeParse(req.body);
  if (!parsed.success) {
    res.status(400).json({ error: 'invalid_request', issues: parsed.error.issues });
    return;
  }
  req.body = parsed.data;
  next();
}
