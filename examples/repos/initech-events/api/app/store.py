from google.cloud import firestore

_client: firestore.Client | None = None


def client() -> firestore.Client:
    global _client
    if _client is None:
        _client = firestore.Client()
    return _client


def registrations_for_event(event_id: str) -> list[dict]:
    query = client().collection("registrations").where(filter=firestore.FieldFilter("eventId", "==", event_id))
    return [doc.to_dict() | {"id": doc.id} for doc in query.stream()]


def all_events() -> list[dict]:
    return [doc.to_dict() | {"id": doc.id} for doc in client().collection("events").stream()]
