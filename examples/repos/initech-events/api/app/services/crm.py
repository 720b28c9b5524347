import os

import requests

TIMEOUT_SECONDS = 10


def push_contact(email: str, source: str) -> str:
    response = requests.post(
        f"{os.environ['CRM_BASE_URL']}/contacts",
        json={"Email": email, "LeadSource": source},
        headers={"Authorization": f"Bearer {os.environ['CRM_API_TOKEN']}"},
        timeout=TIMEOUT_SECONDS,
    )
    response.raise_for_status()
    return response.json()["id"]


def push_contacts(registrations: list[dict], source: str) -> int:
    created = 0
    for registration in registrations:
        push_contact(registration["email"], source)
        created += 1
    return created
