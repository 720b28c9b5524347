const SENDGRID_URL = 'https://api.sendgrid.com/v3/mail/send';

export type TicketMail = { to: string; eventTitle: string; registrationId: string };

export async function sendTicketMail(mail: TicketMail): Promise<void> {
  const apiKey = process.env.SENDGRID_API_KEY;
  if (!apiKey) {
    throw new Error('SENDGRID_API_KEY is not configured');
  }
  const ticketUrl = `${process.env.EVENTS_SITE_URL}/tickets/${mail.registrationId}`;
  const res = await fetch(SENDGRID_URL, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: mail.to }] }],
      from: { email: process.env.MAIL_FROM, name: 'Initech Events' },
      subject: `Your ticket for ${mail.eventTitle}`,
      content: [{ type: 'text/plain', value: `Show this link at the door: ${ticketUrl}` }],
    }),
  });
  if (!res.ok) {
    throw new Error(`sendgrid responded ${res.status}`);
  }
}
