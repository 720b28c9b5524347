import expressRateLimit from 'express-rate-limit';

// Five submissions per client IP per 15 minutes; Cloud Run sits behind one proxy hop.
export const rateLimit = expressRateLimit({
  windowMs: 15 * 60 * 1000,
  limit: 5,
  standardHeaders: 'draft-7',
  legacyHeaders: false,
  message: { error: 'too_many_requests' },
});
