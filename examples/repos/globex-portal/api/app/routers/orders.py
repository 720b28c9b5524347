from fastapi import APIRouter, Depends, HTTPException, status
from sqlalchemy.orm import Session

from app.db import get_session
from app.deps import current_partner
from app.models import Partner
from app.schemas import OrderCreate, OrderOut
from app.services import orders as order_service

router = APIRouter(prefix="/orders", tags=["orders"])


@router.get("", response_model=list[OrderOut])
def list_orders(partner: Partner = Depends(current_partner), db: Session = Depends(get_session)):
    return order_service.list_orders(db, partner.id)


@router.post("", response_model=OrderOut, status_code=status.HTTP_201_CREATED)
def create_order(
    body: OrderCreate,
    partner: Partner = Depends(current_partner),
    db: Session = Depends(get_session),
):
    return order_service.place_order(db, partner.id, body)


@router.get("/{order_id}", response_model=OrderOut)
def get_order(order_id: str, partner: Partner = Depends(current_partner), db: Session = Depends(get_session)):
    order = order_service.get_order(db, partner.id, order_id)
    if order is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "order not found")
    return order
