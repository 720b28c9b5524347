from fastapi import APIRouter, Depends, HTTPException, status
from sqlalchemy.orm import Session

from app.db import get_session
from app.deps import current_partner
from app.models import Partner
from app.schemas import ReportOut
from app.services import reports as report_service

router = APIRouter(prefix="/reports", tags=["reports"])


@router.get("", response_model=list[ReportOut])
def list_reports(partner: Partner = Depends(current_partner), db: Session = Depends(get_session)):
    return report_service.list_reports(db, partner.id)


@router.get("/{report_id}", response_model=ReportOut)
def get_report(report_id: int, partner: Partner = Depends(current_partner), db: Session = Depends(get_session)):
    report = report_service.get_report(db, partner.id, report_id)
    if report is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "report not found")
    return report
