import express from 'express';
import { listEvents, registerForEvent } from './handlers/events';

export const app = express();

app.use(express.json({ limit: '8kb' }));

app.get('/api/events', listEvents);
app.post('/api/events/:id/register', registerForEvent);

app.use((_req, res) => {
  res.status(404).json({ error: 'not_found' });
});
