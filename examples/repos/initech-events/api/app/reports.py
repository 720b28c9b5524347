from flask import Blueprint, abort, jsonify

from app import store

bp = Blueprint("reports", __name__, url_prefix="/reports")

# Report ids are fixed: 1 = attendance per event, 2 = ticket delivery status.
REPORT_TITLES = {1: "Attendance per event", 2: "Ticket delivery status"}


@bp.get("/")
def list_reports():
    return jsonify([{"id": report_id, "title": title} for report_id, title in REPORT_TITLES.items()])


@bp.route("/<int:report_id>", methods=["GET"])
def get_report(report_id: int):
    if report_id not in REPORT_TITLES:
        abort(404)
    rows = []
    for event in store.all_events():
        registrations = store.registrations_for_event(event["id"])
        if report_id == 1:
            rows.append({"event": event["title"], "registered": len(registrations), "capacity": event["capacity"]})
        else:
            sent = sum(1 for r in registrations if r.get("ticketSent"))
            rows.append({"event": event["title"], "sent": sent, "pending": len(registrations) - sent})
    return jsonify({"id": report_id, "title": REPORT_TITLES[report_id], "rows": rows})
