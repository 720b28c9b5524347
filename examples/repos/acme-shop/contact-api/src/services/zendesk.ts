import axios from 'axios';

const { ZENDESK_API_TOKEN, ZENDESK_SUBDOMAIN, ZENDESK_EMAIL } = process.env;

export type NewTicket = {
  requesterName: string;
  requesterEmail: string;
  subject: string;
  comment: string;
  tags: string[];
};

function authHeader(): string {
  const credentials = `${ZENDESK_EMAIL}/token:${ZENDESK_API_TOKEN}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

async function createTicket(ticket: NewTicket): Promise<number> {
  const response = await axios.post(
    `https://${ZENDESK_SUBDOMAIN}.zendesk.com/api/v2/tickets.json`,
    {
      ticket: {
        subject: ticket.subject,
        comment: { body: ticket.comment },
        requester: { name: ticket.requesterName, email: ticket.requesterEmail },
        tags: ticket.tags,
      },
    },
    {
      headers: { Authorization: authHeader(), 'Content-Type': 'application/json' },
      timeout: 10_000,
    },
  );
  return response.data.ticket.id;
}

export const zendeskService = { createTicket };
