import type { Metadata } from 'next';
import { ContactForm } from '@/components/contact-form';

export const metadata: Metadata = {
  title: 'お問い合わせ | ACME Shop',
};

export default function ContactPage() {
  return (
    <section>
      <h1>お問い合わせ</h1>
      <p>ご質問・ご要望は以下のフォームからお送りください。</p>
      <ContactForm />
    </section>
  );
}
