terraform {
  # Provider functions (provider::hpcsku::...) need Terraform 1.8.
  required_version = ">= 1.8.0"

  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}
