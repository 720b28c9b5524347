import type { Request, Response } from 'express';
import { recaptchaService } from '../services/recaptcha';
import { zendeskService } from '../services/zendesk';
import type { ContactBody } from '../validators/contact';

export const contactController = {
  async sendContactEmailJp(req: Request, res: Response) {
    const body = req.body as ContactBody;

    const human = await recaptchaService.verify(body.recaptchaToken, req.ip);
    if (!human) {
      res.status(403).json({ error: 'recaptcha_failed' });
      return;
    }

    try {
      const ticketId = await zendeskService.createTicket({
        requesterName: body.name,
        requesterEmail: body.email,
        subject: `[JP] ${body.subject}`,
        comment: body.message,
        tags: ['web-contact', 'jp'],
      });
      res.status(201).json({ ticketId });
    } catch (err) {
      console.error('zendesk ticket creation failed', err);
      res.status(502).json({ error: 'upstream_unavailable' });
    }
  },
};
