from fastapi import Cookie, Depends, HTTPException, status
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import get_session
from app.models import Partner


def current_partner(
    session_id: str | None = Cookie(default=None, alias="globex_session"),
    db: Session = Depends(get_session),
) -> Partner:
    if not session_id:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "not signed in")
    partner = db.scalar(select(Partner).where(Partner.session_id == session_id))
    if partner is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "session expired")
    return partner
