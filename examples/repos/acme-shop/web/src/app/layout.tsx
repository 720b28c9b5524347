import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import Script from 'next/script';
import { RECAPTCHA_SITE_KEY } from '@/lib/config';

export const metadata: Metadata = {
  title: 'ACME Shop',
  description: 'Tools, parts and support from ACME.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="ja">
      <body>
        <header>
          <a href="/">ACME Shop</a>
          <nav>
            <a href="/contact">お問い合わせ</a>
          </nav>
        </header>
        <main>{children}</main>
        <Script
          src={`https://www.google.com/recaptcha/api.js?render=${RECAPTCHA_SITE_KEY}`}
          strategy="afterInteractive"
        />
      </body>
    </html>
  );
}
