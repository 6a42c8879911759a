"""The member's own pages: my page, absence reports for coming evenings, the private calendar
feed; and the TD's calendar of club evenings."""

urlpatterns: list = []
