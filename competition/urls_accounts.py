"""Member accounts: invitations (made by the TD), accepting one (with a new account or the one
the member is logged in with), and the member's own data as a download."""

from django.urls import path

from competition.views import accounts

_member = "td/<slug:season_slug>/members/<int:member_id>/"

urlpatterns = [
    path("td/<slug:season_slug>/members/", accounts.td_members, name="td_members"),
    path(_member + "invite/", accounts.td_member_invite, name="td_member_invite"),
    path(_member + "unlink/", accounts.td_member_unlink, name="td_member_unlink"),
    path(_member + "withdraw/", accounts.td_member_withdraw, name="td_member_withdraw"),
    path(_member + "reinstate/", accounts.td_member_reinstate, name="td_member_reinstate"),
    path("account/invite/<str:token>/", accounts.invitation_accept, name="invitation_accept"),
    path("me/data.json", accounts.my_data, name="my_data"),
]
