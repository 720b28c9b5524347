import * as functions from 'firebase-functions/v1';
import { onCall, onRequest } from 'firebase-functions/v2/https';
import { onDocumentCreated } from 'firebase-functions/v2/firestore';
import { db } from './admin';
import { app } from './app';
import { handleSendTicket, sendTicketForRegistration } from './triggers/tickets';

const region = 'asia-northeast1';

// HTTP API behind the Hosting rewrite /api/** -> api.
export const api = onRequest({ region, secrets: ['SENDGRID_API_KEY'], maxInstances: 10 }, app);

// Callable used by the web client after a successful registration.
export const sendTicket = onCall({ region, secrets: ['SENDGRID_API_KEY'] }, handleSendTicket);

// Fallback: tickets for registrations created by other paths (e.g. the admin console).
export const onRegistrationCreated = onDocumentCreated(
  { document: 'registrations/{id}', region, secrets: ['SENDGRID_API_KEY'] },
  async (event) => {
    if (event.data?.get('ticketSent') === false) {
      await sendTicketForRegistration(event.params.id);
    }
  },
);

// v1 Auth trigger (no v2 equivalent for user creation without Identity Platform).
export const onUserCreate = functions.auth.user().onCreate(async (user) => {
  await db.collection('profiles').doc(user.uid).set({
    email: user.email ?? null,
    createdAt: new Date().toISOString(),
  });
});
