"""Template context for every page: whether the user may run club evenings, and whether he is
an admin of the club whose page this is (each asked only when a template needs it)."""

from django.http import HttpRequest

from competition.permissions import is_club_admin, is_td_anywhere, request_club


def roles(request: HttpRequest) -> dict[str, object]:
    def club_admin() -> bool:
        club = request_club(request)
        return club is not None and is_club_admin(request.user, club)

    return {"user_is_td": lambda: is_td_anywhere(request.user), "user_is_club_admin": club_admin}
