import uuid
from decimal import Decimal

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Order
from app.schemas import OrderCreate
from app.settings import get_settings

PAYMENT_CHARGES_URL = "https://api.stripe.example/v1/charges"


def list_orders(db: Session, partner_id: int) -> list[Order]:
    stmt = select(Order).where(Order.partner_id == partner_id).order_by(Order.created_at.desc())
    return list(db.scalars(stmt))


def get_order(db: Session, partner_id: int, order_id: str) -> Order | None:
    order = db.get(Order, order_id)
    return order if order is not None and order.partner_id == partner_id else None


def charge(amount: Decimal, currency: str, order_id: str) -> str:
    settings = get_settings()
    response = httpx.post(
        PAYMENT_CHARGES_URL,
        headers={"Authorization": f"Bearer {settings.payment_api_key}", "Idempotency-Key": order_id},
        data={"amount": int(amount * 100), "currency": currency.lower(), "metadata[order_id]": order_id},
        timeout=10.0,
    )
    response.raise_for_status()
    return response.json()["id"]


def place_order(db: Session, partner_id: int, body: OrderCreate) -> Order:
    order_id = f"ord_{uuid.uuid4().hex[:20]}"
    total = sum((line.unit_price * line.quantity for line in body.lines), Decimal("0"))
    order = Order(
        id=order_id,
        partner_id=partner_id,
        currency=body.currency,
        total=total,
        lines=[line.model_dump(mode="json", by_alias=True) for line in body.lines],
    )
    order.charge_id = charge(total, body.currency, order_id)
    order.status = "paid"
    db.add(order)
    db.commit()
    return order
