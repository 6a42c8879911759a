"""Member accounts: invitations (made by the TD), accepting one, linking an existing account."""

urlpatterns: list = []
