"""Template context for every page: whether the user may run the club evenings of the club whose
page this is (on the site's own pages: of any club), and whether he is an admin of that club
(each asked only when a template needs it)."""

from django.http import HttpRequest

from competition.permissions import is_club_admin, is_td, is_td_anywhere, request_club


def roles(request: HttpRequest) -> dict[str, object]:
    def club_admin() -> bool:
        club = request_club(request)
        return club is not None and is_club_admin(request.user, club)

    def td() -> bool:
        club = request_club(request)
        return is_td_anywhere(request.user) if club is None else is_td(request.user, club)

    return {"user_is_td": td, "user_is_club_admin": club_admin}
