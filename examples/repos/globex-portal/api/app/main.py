from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app.routers import auth, orders, reports

app = FastAPI(title="Globex Portal API", version="3.2.0")

app.add_middleware(
    CORSMiddleware,
    allow_origins=["https://portal.globex.example", "https://portal.dev.globex.example"],
    allow_credentials=True,
    allow_methods=["GET", "POST"],
    allow_headers=["Content-Type"],
)

app.include_router(orders.router, prefix="/v1")
app.include_router(auth.router, prefix="/v1")
app.include_router(reports.router, prefix="/v1")


@app.get("/healthz", include_in_schema=False)
def healthz() -> dict[str, str]:
    return {"status": "ok"}
