import express from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { apiRouter } from './routes';

const allowedOrigins = (process.env.ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);

export const app = express();

app.set('trust proxy', 1);
app.use(helmet());
app.use(cors({ origin: allowedOrigins, methods: ['GET', 'POST'] }));
app.use(express.json({ limit: '32kb' }));

app.use('/api', apiRouter);

app.use((_req, res) => {
  res.status(404).json({ error: 'not_found' });
});

const port = Number(process.env.PORT ?? 8080);

app.listen(port, () => {
  console.log(`contact-api listening on :${port}`);
});
