"""The entrant's payment details on their own page: their account for refunds and prizes."""
