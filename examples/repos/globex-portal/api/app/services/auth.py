import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Partner


def verify_password(password: str, stored: str) -> bool:
    salt, _, expected = stored.partition("$")
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 310_000).hex()
    return hmac.compare_digest(digest, expected)


def authenticate(db: Session, email: str, password: str) -> str | None:
    partner = db.scalar(select(Partner).where(Partner.email == email))
    if partner is None or not verify_password(password, partner.password_hash):
        return None
    partner.session_id = secrets.token_urlsafe(32)
    db.commit()
    return partner.session_id
