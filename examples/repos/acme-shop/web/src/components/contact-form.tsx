'use client';

import { useState, type FormEvent } from 'react';
import { postContact } from '@/lib/api';
import { RECAPTCHA_SITE_KEY } from '@/lib/config';

declare global {
  interface Window {
    grecaptcha: {
      ready(cb: () => void): void;
      execute(siteKey: string, options: { action: string }): Promise<string>;
    };
  }
}

type Status = 'idle' | 'sending' | 'sent' | 'error';

function getRecaptchaToken(): Promise<string> {
  return new Promise((resolve) => {
    window.grecaptcha.ready(() => {
      window.grecaptcha.execute(RECAPTCHA_SITE_KEY, { action: 'contact' }).then(resolve);
    });
  });
}

export function ContactForm() {
  const [status, setStatus] = useState<Status>('idle');

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setStatus('sending');
    try {
      const recaptchaToken = await getRecaptchaToken();
      await postContact({
        name: String(form.get('name') ?? ''),
        email: String(form.get('email') ?? ''),
        subject: String(form.get('subject') ?? ''),
        message: String(form.get('message') ?? ''),
        recaptchaToken,
      });
      setStatus('sent');
    } catch {
      setStatus('error');
    }
  }

  if (status === 'sent') {
    return <p role="status">送信しました。担当者よりご連絡いたします。</p>;
  }

  return (
    <form onSubmit={handleSubmit}>
      <label>
        お名前 <input name="name" required maxLength={100} />
      </label>
      <label>
        メールアドレス <input name="email" type="email" required />
      </label>
      <label>
        件名 <input name="subject" required maxLength={200} />
      </label>
      <label>
        お問い合わせ内容 <textarea name="message" required maxLength={5000} />
      </label>
      <button type="submit" disabled={status === 'sending'}>
        送信
      </button>
      {status === 'error' && <p role="alert">送信に失敗しました。時間をおいて再度お試しください。</p>}
    </form>
  );
}
