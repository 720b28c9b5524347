// Route paths shared by the routers and the API tests.
export const CONTACT_PATH = '/contact';

export const HEALTH_PATH = '/health';
