"""Template context for every page: whether the user may run club evenings."""

from django.http import HttpRequest

from competition.permissions import is_td_anywhere


def roles(request: HttpRequest) -> dict[str, object]:
    return {"user_is_td": lambda: is_td_anywhere(request.user)}
