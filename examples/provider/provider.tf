terraform {
  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}

# The provider needs no credentials and makes no network calls.
provider "hpcsku" {
  # Pin the date every lifecycle judgement uses, so CI plans do not change
  # as the calendar moves. Defaults to today (UTC).
  as_of = "2026-11-22"
}
