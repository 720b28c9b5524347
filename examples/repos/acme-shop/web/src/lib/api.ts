import { z } from 'zod';
import { CONTACT_API_URL } from './config';

export const contactSchema = z.object({
  name: z.string().min(1).max(100),
  email: z.string().email(),
  subject: z.string().min(1).max(200),
  message: z.string().min(1).max(5000),
  recaptchaToken: z.string().min(1),
});

export type ContactPayload = z.infer<typeof contactSchema>;

export type Faq = { slug: string; question: string; answer: string };

export async function postContact(payload: ContactPayload): Promise<{ ticketId: number }> {
  const body = contactSchema.parse(payload);
  const res = await fetch(`${CONTACT_API_URL}jp/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    throw new Error(`contact request failed with status ${res.status}`);
  }
  return res.json();
}

export async function getFaq(slug: string): Promise<Faq | null> {
  const res = await fetch(`${CONTACT_API_URL}jp/faq/${encodeURIComponent(slug)}`, {
    next: { revalidate: 3600 },
  });
  if (res.status === 404) {
    return null;
  }
  if (!res.ok) {
    throw new Error(`faq request failed with status ${res.status}`);
  }
  return res.json();
}
