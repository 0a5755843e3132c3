"""Human-readable output: summary tables and leaderboards (results files hold the rest)."""
