"""JavaScript/TypeScript family: language plumbing (`common`, `index`, `resolve`, `calls`)
and the extractors built on it (`vue`, `typescript`, `express`, `nextjs`, `firebase`)."""
