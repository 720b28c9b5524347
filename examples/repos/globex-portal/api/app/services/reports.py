from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Report


def list_reports(db: Session, partner_id: int) -> list[Report]:
    stmt = select(Report).where(Report.partner_id == partner_id).order_by(Report.period.desc())
    return list(db.scalars(stmt))


def get_report(db: Session, partner_id: int, report_id: int) -> Report | None:
    report = db.get(Report, report_id)
    return report if report is not None and report.partner_id == partner_id else None
