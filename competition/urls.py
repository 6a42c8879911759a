"""The competition app's URLs: public pages, the TD's club evening, file imports and exports,
member accounts and the member's own pages."""

from competition.urls_accounts import urlpatterns as account_urls
from competition.urls_files import urlpatterns as file_urls
from competition.urls_member import urlpatterns as member_urls
from competition.urls_public import urlpatterns as public_urls
from competition.urls_td import urlpatterns as td_urls

app_name = "competition"

urlpatterns = [*public_urls, *td_urls, *file_urls, *account_urls, *member_urls]
