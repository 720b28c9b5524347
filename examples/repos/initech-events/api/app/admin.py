from flask import Blueprint, jsonify, request

from app import store
from app.services import crm

admin_bp = Blueprint("admin", __name__)


@admin_bp.get("/health")
def health():
    return jsonify(status="ok")


@admin_bp.post("/sync-crm")
def sync_crm():
    event_id = request.args.get("event_id")
    if not event_id:
        return jsonify(error="event_id is required"), 400
    registrations = store.registrations_for_event(event_id)
    created = crm.push_contacts(registrations, source=f"initech-event:{event_id}")
    return jsonify(event_id=event_id, pushed=created)
