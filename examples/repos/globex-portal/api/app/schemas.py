from decimal import Decimal

from pydantic import BaseModel, EmailStr, Field


class OrderLine(BaseModel):
    sku: str = Field(min_length=1, max_length=64)
    quantity: int = Field(gt=0, le=1000)
    unit_price: Decimal = Field(alias="unitPrice", gt=0)


class OrderCreate(BaseModel):
    lines: list[OrderLine] = Field(min_length=1)
    currency: str = Field(default="USD", pattern="^[A-Z]{3}$")


class OrderOut(BaseModel):
    id: str
    status: str
    total: Decimal
    currency: str
    lines: list[dict]


class LoginRequest(BaseModel):
    email: EmailStr
    password: str


class ReportOut(BaseModel):
    id: int
    title: str
    period: str
    rows: list[dict] = []
