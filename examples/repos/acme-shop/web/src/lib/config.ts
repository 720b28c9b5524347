// Public runtime configuration. NEXT_PUBLIC_* values are inlined at build time.
export const CONTACT_API_URL = process.env.NEXT_PUBLIC_CONTACT_API_URL ?? '';

export const RECAPTCHA_SITE_KEY = process.env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY ?? '';
