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

  # Optional files from your subscription, read from disk when set (see the
  # guide "Using your subscription's availability and prices"):
  #
  # What `az vm list-skus --resource-type virtualMachines --all -o json`
  # prints: region then means offered to that subscription, and every size
  # carries its zones, restrictions and quota family.
  # availability_file = "${path.module}/subscription/skus.json"
  #
  # Azure Retail Prices API JSON, or a CSV of negotiated prices
  # (region,vm_size,usd_per_hour[,spot_usd_per_hour]).
  # prices_file = "${path.module}/subscription/prices.csv"
  #
  # Sizes to add or correct, in the embedded catalog's own JSON format.
  # catalog_file = "${path.module}/subscription/extra-sizes.json"
}
