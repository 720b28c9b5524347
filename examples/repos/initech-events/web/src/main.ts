import { httpsCallable } from 'firebase/functions';
import { functions } from './firebase';

type EventSummary = { id: string; title: string; startsAt: string; seatsLeft: number };

const list = document.querySelector<HTMLUListElement>('#events')!;
const message = document.querySelector<HTMLParagraphElement>('#message')!;

const sendTicket = httpsCallable<{ registrationId: string }, { sent: boolean }>(functions, 'sendTicket');

async function loadEvents(): Promise<EventSummary[]> {
  const res = await fetch('/api/events');
  if (!res.ok) throw new Error(`events request failed: ${res.status}`);
  return res.json();
}

async function register(id: string, email: string): Promise<void> {
  const res = await fetch('/api/events/' + id + '/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) {
    message.textContent = res.status === 409 ? 'This event is full.' : 'Registration failed.';
    return;
  }
  const { registrationId } = (await res.json()) as { registrationId: string };
  await sendTicket({ registrationId });
  message.textContent = 'You are registered. Your ticket is on its way.';
}

function render(events: EventSummary[]): void {
  list.replaceChildren(
    ...events.map((event) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.textContent = 'Register';
      button.disabled = event.seatsLeft === 0;
      button.addEventListener('click', () => {
        const email = window.prompt('Your e-mail address');
        if (email) void register(event.id, email);
      });
      item.append(`${event.title} — ${new Date(event.startsAt).toLocaleString()} `, button);
      return item;
    }),
  );
}

loadEvents()
  .then(render)
  .catch(() => {
    message.textContent = 'Could not load events.';
  });
