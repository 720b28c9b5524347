from fastapi import APIRouter, Depends, HTTPException, Response, status
from sqlalchemy.orm import Session

from app.db import get_session
from app.schemas import LoginRequest
from app.services.auth import authenticate
from app.settings import get_settings

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/login", status_code=status.HTTP_204_NO_CONTENT)
def login(body: LoginRequest, response: Response, db: Session = Depends(get_session)) -> None:
    session_id = authenticate(db, body.email, body.password)
    if session_id is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "invalid credentials")
    response.set_cookie(
        "globex_session",
        session_id,
        max_age=get_settings().session_ttl_hours * 3600,
        httponly=True,
        secure=True,
        samesite="lax",
    )
