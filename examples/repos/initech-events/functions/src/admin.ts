import { initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';

initializeApp();

export const db = getFirestore();

export type EventDoc = { title: string; startsAt: string; capacity: number; registered: number };

export type RegistrationDoc = { eventId: string; email: string; createdAt: string; ticketSent: boolean };
