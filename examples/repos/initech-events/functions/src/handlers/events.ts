import type { Request, Response } from 'express';
import { FieldValue } from 'firebase-admin/firestore';
import { db, type EventDoc } from '../admin';

export async function listEvents(_req: Request, res: Response): Promise<void> {
  const snapshot = await db.collection('events').where('startsAt', '>=', new Date().toISOString()).orderBy('startsAt').get();
  const events = snapshot.docs.map((doc) => {
    const data = doc.data() as EventDoc;
    return { id: doc.id, title: data.title, startsAt: data.startsAt, seatsLeft: data.capacity - data.registered };
  });
  res.set('Cache-Control', 'public, max-age=60');
  res.json(events);
}

export async function registerForEvent(req: Request, res: Response): Promise<void> {
  const email = String(req.body?.email ?? '').trim();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
    res.status(400).json({ error: 'invalid_email' });
    return;
  }
  const eventRef = db.collection('events').doc(req.params.id);
  const registrationRef = db.collection('registrations').doc();

  const outcome = await db.runTransaction(async (tx) => {
    const event = await tx.get(eventRef);
    if (!event.exists) return 'missing';
    const data = event.data() as EventDoc;
    if (data.registered >= data.capacity) return 'full';
    tx.update(eventRef, { registered: FieldValue.increment(1) });
    tx.create(registrationRef, { eventId: eventRef.id, email, createdAt: new Date().toISOString(), ticketSent: false });
    return 'ok';
  });

  if (outcome === 'missing') {
    res.status(404).json({ error: 'event_not_found' });
  } else if (outcome === 'full') {
    res.status(409).json({ error: 'event_full' });
  } else {
    res.status(201).json({ registrationId: registrationRef.id });
  }
}
