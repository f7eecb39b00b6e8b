"""The one map from the service layer's outcomes and refusals to the API's statuses and bodies
(docs/API.md's table of statuses and codes)."""

from __future__ import annotations

import msgspec

from projections.i18n import Texts, texts
from services.commands.outcomes import Accepted, Outcome, Rejected, Stale
from services.commands.refused import Kind, Refused
from services.gateway import schemas
from services.gateway.access import ApiError

STATUS: dict[Kind, int] = {
    "invalid": 400,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "unprocessable": 422,
    "too_many": 429,
}


def refused(refusal: Refused) -> ApiError:
    problem = ApiError(STATUS[refusal.kind], refusal.code, refusal.message)
    problem.template, problem.params = refusal.template, refusal.params
    return problem


def of(outcome: Outcome, said: Texts | None = None, view: bytes | None = None) -> tuple[int, bytes]:
    """A submitted command's status and body: 200 accepted, 422 refused by a rule, 409 otherwise;
    a refusal's message in the language of ``said`` (English without); a stale one's with the
    seat's ``view`` at the version it names, if given."""
    said = said or texts()
    if isinstance(outcome, Accepted):
        return 200, msgspec.json.encode(schemas.Accepted(outcome.version, outcome.events, outcome.receipt))
    if isinstance(outcome, Rejected):
        # an outcome kept before refusals had their template says its English message
        return 422, schemas.error(outcome.code, said._(outcome.template or outcome.message, **outcome.params))
    if isinstance(outcome, Stale):  # the match moved under it: the current version with a stale one only
        message = said._(Stale.TEMPLATE, version=outcome.version)
        return 409, schemas.error(outcome.code, message, outcome.version, view)
    return 409, schemas.error(outcome.code, said._(outcome.message))  # closed, or contended
