import { initializeApp } from 'firebase/app';
import { getAuth } from 'firebase/auth';
import { getFunctions } from 'firebase/functions';

// The web API key is a public identifier; it is injected from the CI environment at build time.
export const firebaseApp = initializeApp({
  apiKey: import.meta.env.VITE_FIREBASE_API_KEY,
  authDomain: import.meta.env.VITE_FIREBASE_AUTH_DOMAIN,
  projectId: import.meta.env.VITE_FIREBASE_PROJECT_ID,
});

export const auth = getAuth(firebaseApp);

export const functions = getFunctions(firebaseApp, import.meta.env.VITE_FUNCTIONS_REGION ?? 'asia-northeast1');
