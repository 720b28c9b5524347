"""What surrounds the code: Terraform (`terraform`), package manifests and locks
(`packages`), environment variables (`env`) and the Contentful CMS (`contentful`)."""
