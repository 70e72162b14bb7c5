print("iap-recon")
