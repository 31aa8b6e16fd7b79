-- CreateTable
CREATE TABLE "StalledWorkRedrive" (
    "subject" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastAt" TIMESTAMP(3) NOT NULL,
    "gaveUpAt" TIMESTAMP(3),

    CONSTRAINT "StalledWorkRedrive_pkey" PRIMARY KEY ("subject")
);
