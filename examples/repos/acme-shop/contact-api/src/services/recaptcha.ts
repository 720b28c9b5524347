import axios from 'axios';

const SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
const MIN_SCORE = 0.5;

type SiteverifyResponse = {
  success: boolean;
  score?: number;
  action?: string;
  'error-codes'?: string[];
};

async function verify(token: string, remoteIp?: string): Promise<boolean> {
  const params = new URLSearchParams({
    secret: process.env.RECAPTCHA_SECRET ?? '',
    response: token,
  });
  if (remoteIp) {
    params.set('remoteip', remoteIp);
  }
  const { data } = await axios.post<SiteverifyResponse>(SITEVERIFY_URL, params, { timeout: 5_000 });
  return data.success && data.action === 'contact' && (data.score ?? 0) >= MIN_SCORE;
}

export const recaptchaService = { verify };
