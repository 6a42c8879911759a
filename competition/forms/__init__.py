"""Forms by area: ``evening`` (the club evening), ``rules`` (season rules), ``files``,
``accounts`` (invitations and member accounts)."""
