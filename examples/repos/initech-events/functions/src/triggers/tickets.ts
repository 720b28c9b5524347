import { HttpsError, type CallableRequest } from 'firebase-functions/v2/https';
import { db, type EventDoc, type RegistrationDoc } from '../admin';
import { sendTicketMail } from '../services/sendgrid';

export async function sendTicketForRegistration(registrationId: string): Promise<void> {
  const registrationRef = db.collection('registrations').doc(registrationId);
  const registration = (await registrationRef.get()).data() as RegistrationDoc | undefined;
  if (!registration) {
    throw new HttpsError('not-found', 'registration not found');
  }
  if (registration.ticketSent) return;
  const event = (await db.collection('events').doc(registration.eventId).get()).data() as EventDoc;
  await sendTicketMail({ to: registration.email, eventTitle: event.title, registrationId });
  await registrationRef.update({ ticketSent: true });
}

export async function handleSendTicket(request: CallableRequest<{ registrationId?: string }>) {
  const registrationId = request.data.registrationId;
  if (!registrationId) {
    throw new HttpsError('invalid-argument', 'registrationId is required');
  }
  await sendTicketForRegistration(registrationId);
  return { sent: true };
}
